package programs

// CodeValues returns the values of the options whose value is code in the
// program's language (python -c CODE, node -e CODE, perl -lne CODE), in
// argv order. A dynamic value is returned as written: its literal parts
// still count.
func CodeValues(p *Program, args []string, dyn []bool) []string {
	if p == nil || len(p.Code) == 0 {
		return nil
	}
	var out []string
	s := NewScanner(p, args, dyn, "")
	for {
		it, ok := s.Next()
		if !ok {
			return out
		}
		if it.Kind == Option && it.HasValue && p.hasOpt(p.Code, it.Name) {
			out = append(out, it.Value)
		}
	}
}
