package validate

import "testing"

// FuzzPriorityOK holds priorityOK's shortcut for the usual forms to the
// check it stands for: an xsd:decimal from 0 to 1.
func FuzzPriorityOK(f *testing.F) {
	for _, s := range []string{"0", "1", "0.5", "1.0", "1.000", "1.001", "0.999", "1.", "0.", ".5", "2", "01", "0.1234", " 0.5", "-0", "+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := xsdDecimal(s)
		if want := ok && p >= 0 && p <= 1; priorityOK(s) != want {
			t.Fatalf("priorityOK(%q) = %v, xsdDecimal says %v, %v", s, !want, p, ok)
		}
	})
}
