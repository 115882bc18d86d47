import { hasDesktopTools } from "../harness/desktop.ts";
import { gtkSuite } from "../harness/gtk_suite.ts";

if (hasDesktopTools()) gtkSuite("gtk4-widget-factory", { password: true });
