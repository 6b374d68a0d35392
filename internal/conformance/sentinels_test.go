package conformance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The project's one sentinel convention: a sentinel error is a
// package-level variable named ErrX (errX when unexported) made by
// errors.New (or fmt.Errorf) with the text "pkg: message", pkg being the
// package's name (an exported one: what other packages match), and
// callers match it with errors.Is, never with == or !=.
// An error that carries details wraps the sentinel (fmt.Errorf("%w: ...")),
// or is a type whose Is method reports it when callers need its fields.
// A sentinel of an internal package that a public package exports as its
// own (formats' ErrTooLarge = source.ErrTooLarge) may have the text of the
// public package instead: what users see and match.

// legacyText are the sentinels whose text predates the convention, by
// package and name, with the reason they keep it: none. A sentinel whose
// words end a message that already says where it is ("x.xml:3:5: bad
// host") is wrapped there with reason.Of, which reads as its text without
// the package's prefix and still matches it. An entry that names no
// sentinel of the module any more is an error.
var legacyText = map[string]string{}

// legacyCompare are the sentinels still compared with == outside an Is
// method, by package and name: none.
var legacyCompare = map[string]string{}

var sentinelName = regexp.MustCompile(`^[Ee]rr[A-Z]`)

// TestSentinelConvention holds every package of the module to the sentinel
// convention above, but for the sentinels listed as legacy.
func TestSentinelConvention(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	exported := reexports(files)
	declared := map[string]bool{}
	for _, f := range files {
		checkDeclarations(t, fset, f, exported, declared)
	}
	if len(declared) < 20 {
		t.Fatalf("found only %d sentinels in the module: is the walk from %s wrong?", len(declared), root)
	}
	for _, f := range files {
		checkComparisons(t, fset, f, declared)
	}
	for key := range legacyText {
		if !declared[key] {
			t.Errorf("legacyText lists %s, which is no sentinel of the module: remove it", key)
		}
	}
}

// reexports returns, by the key of an internal package's sentinel
// ("source.ErrTooLarge"), the name of the package that exports it as its
// own (ErrTooLarge = source.ErrTooLarge in package formats).
func reexports(files []*ast.File) map[string]string {
	exported := map[string]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, value := range vs.Values {
					if name, qual := exprName(value); qual != "" && sentinelName.MatchString(name) && ast.IsExported(vs.Names[i].Name) {
						exported[qual+"."+name] = f.Name.Name
					}
				}
			}
		}
	}
	return exported
}

// checkDeclarations reports the sentinels f declares against the
// convention (the prefix of the package that exports it, when one does,
// allowed too: exported), and adds them to declared ("pkg.ErrX").
func checkDeclarations(t *testing.T, fset *token.FileSet, f *ast.File, exported map[string]string, declared map[string]bool) {
	t.Helper()
	pkg := f.Name.Name
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, value := range vs.Values {
				text, ok := newErrorText(value)
				if !ok {
					continue
				}
				name := vs.Names[i].Name
				key := pkg + "." + name
				declared[key] = true
				pos := fset.Position(vs.Names[i].Pos())
				if !sentinelName.MatchString(name) {
					t.Errorf("%s: sentinel %s: its name does not start with Err", pos, key)
				}
				prefix := pkg + ": "
				if owner, ok := exported[key]; ok && strings.HasPrefix(text, owner+": ") {
					prefix = owner + ": "
				}
				if _, legacy := legacyText[key]; !legacy && ast.IsExported(name) && !strings.HasPrefix(text, prefix) {
					t.Errorf("%s: sentinel %s: text %q does not start with %q (the convention: internal/conformance/sentinels_test.go)", pos, key, text, prefix)
				}
			}
		}
	}
}

// checkComparisons reports the exported sentinels of the module f compares
// with == or != outside an Is method.
func checkComparisons(t *testing.T, fset *token.FileSet, f *ast.File, declared map[string]bool) {
	t.Helper()
	pkg := f.Name.Name
	ast.Inspect(f, func(node ast.Node) bool {
		if fn, ok := node.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "Is" {
			return false // an Is method compares its target with the sentinel
		}
		bin, ok := node.(*ast.BinaryExpr)
		if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
			return true
		}
		for _, side := range []ast.Expr{bin.X, bin.Y} {
			name, qual := exprName(side)
			if qual == "" {
				qual = pkg
			}
			if _, legacy := legacyCompare[qual+"."+name]; declared[qual+"."+name] && ast.IsExported(name) && !legacy {
				t.Errorf("%s: %s compared with %s: match sentinels with errors.Is (the convention: internal/conformance/sentinels_test.go)", fset.Position(bin.Pos()), name, bin.Op)
			}
		}
		return true
	})
}

// newErrorText returns the text of errors.New("...") or the format of
// fmt.Errorf("...", ...).
func newErrorText(e ast.Expr) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	name, qual := exprName(call.Fun)
	if !(qual == "errors" && name == "New" || qual == "fmt" && name == "Errorf") {
		return "", false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	text, err := strconv.Unquote(lit.Value)
	return text, err == nil
}

// exprName returns the name of an identifier (qual "") or of a selector
// pkg.Name (qual "pkg").
func exprName(e ast.Expr) (name, qual string) {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name, ""
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return x.Sel.Name, id.Name
		}
	}
	return "", ""
}
