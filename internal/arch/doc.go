// Package arch holds no code: its tests check that each rkql package
// imports only the rkql packages DESIGN.md allows it, so that no package
// imports one that depends on it, that the shell imports no exec package
// (and its tests only the embedded store), and that exec and the engine never
// write into a plan the planner made (a placed plan is a value of its
// own, in exec/placed).
package arch
