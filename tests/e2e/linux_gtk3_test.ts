import { hasDesktopTools } from "../harness/desktop.ts";
import { gtkSuite } from "../harness/gtk_suite.ts";

// gtk3-widget-factory has no password entry; secrecy is checked on gtk4 and Chromium.
if (hasDesktopTools()) gtkSuite("gtk3-widget-factory", { password: false });
