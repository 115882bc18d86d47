import { hasDesktopTools } from "../harness/desktop.ts";
import { gtkSuite } from "../harness/gtk_suite.ts";

// "No rows found" is the list box's placeholder: in the tree, but not shown (the list has rows).
if (hasDesktopTools()) {
  gtkSuite("gtk4-widget-factory", { password: true, hiddenText: "No rows found" });
}
