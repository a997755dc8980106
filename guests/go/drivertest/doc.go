// Package drivertest tests the first-party drivers' translation natively:
// driverkit.Run with each Provider over net/http against the loopback
// mock provider, the same code the driver components run over wasi:http.
// It lives apart from the driver packages so editing a test does not
// change the drivers' build inputs.
package drivertest
