// Package arch holds no code: its test checks that each rkql package
// imports only the rkql packages DESIGN.md allows it, so that no package
// imports one that depends on it.
package arch
