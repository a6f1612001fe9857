/* The program's main lives in a static library built from c_control_flow.c; this file only
 * makes the executable. */
int vcmon_wrapper_project_anchor;
