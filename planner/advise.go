package planner

// Advise ranks key designs for the queries of a workload file.
type Advise struct{ File string }

func (*Advise) plan() {}
