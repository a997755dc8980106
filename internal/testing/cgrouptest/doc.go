// Package cgrouptest gives tests the cgroups a user of mur is given on a
// real host, so that mur's session scope (security.md §12.2) is built as
// it would be there: a subtree an administrator delegated to a uid
// (Delegate), and a session bus with a stand-in for the systemd user
// manager that hands each caller a delegated transient scope
// (StartSystemd). Both are made under this test process's own cgroups,
// which must be writable (the tests run as root).
package cgrouptest
