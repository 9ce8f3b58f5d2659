package gen

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/cetpgen/cetpgen/gen/diag"
	"github.com/cetpgen/cetpgen/gen/emit"
	"github.com/cetpgen/cetpgen/gen/internal/par"
	"github.com/cetpgen/cetpgen/gen/ir"
	"github.com/cetpgen/cetpgen/gen/write"
)

// RunOptions configure Run.
type RunOptions struct {
	// Targets names the targets to render; empty is all.
	Targets []string
	// Out is the output root.
	Out string
	// Check writes nothing and reports what is stale instead.
	Check bool
	// Checked, when set, is called once the specs are checked and
	// resolved, with their Providers and every diagnostic (errors
	// included), before anything renders; an error it returns ends the
	// run. The CLI prints the diagnostics here.
	Checked func(providers []*ir.Provider, l diag.List) error
}

// RunResult is what Run did.
type RunResult struct {
	// Diags are every diagnostic of the specs; with an error among them
	// nothing was rendered or written.
	Diags diag.List
	// Providers are the checked Providers (none when Diags has errors).
	Providers []*ir.Provider
	// Written are the paths (under Out) written or deleted.
	Written []string
	// Stale is the unified diff of a stale output root (Check only; ""
	// when fresh).
	Stale string
}

// Run is the pipeline in one place: the target names are checked before
// any spec is read, then each spec directory is loaded, validated and
// resolved into its IR (Check), every target renders every Provider
// (Plan), and the files are written, all or none (write.Apply), or
// compared with what is there (write.Check). A user error in a spec stops
// before rendering and is returned in Diags; a failure of the tool is the
// error, as is an error of opt.Checked, which sees the checked specs
// between the IR and the emitters.
func Run(open Source, dirs []string, opt RunOptions) (RunResult, error) {
	var r RunResult
	if err := CheckTargets(opt.Targets); err != nil {
		return r, err
	}
	providers, l, err := Check(open, dirs)
	r.Diags = l
	if err != nil {
		return r, err
	}
	if opt.Checked != nil {
		if err := opt.Checked(providers, l); err != nil {
			return r, err
		}
	}
	if l.HasErrors() {
		return r, nil
	}
	r.Providers = providers
	plan, err := Plan(providers, opt.Targets, opt.Out)
	if err != nil {
		return r, err
	}
	if opt.Check {
		r.Stale, err = write.Check(plan)
		return r, err
	}
	r.Written, err = write.Apply(plan)
	return r, err
}

// Plan renders every Provider with the named targets (all when names is
// empty) into a write plan rooted at root. Nothing is written. The
// renderings, one per target and Provider, run on the generator's worker
// pool (emitters read only the IR); their files are gathered in target
// and Provider order, and the first failure in that order is the error.
func Plan(providers []*ir.Provider, names []string, root string) (write.Plan, error) {
	chosen, err := selectTargets(names)
	if err != nil {
		return write.Plan{}, err
	}
	jobs := make([]rendering, 0, len(chosen)*len(providers))
	for _, t := range chosen {
		for _, p := range providers {
			jobs = append(jobs, rendering{t: t, p: p})
		}
	}
	par.Each(len(jobs), func(i int) { jobs[i].run(root) })
	plan := write.Plan{Root: root}
	for _, j := range jobs {
		if j.err != nil {
			return write.Plan{}, fmt.Errorf("emit %s for %s: %w", j.t.Name, j.p.Dir, j.err)
		}
		plan.Owned = append(plan.Owned, j.owned)
		plan.Files = append(plan.Files, j.files...)
	}
	sort.Slice(plan.Files, func(i, j int) bool { return plan.Files[i].Path < plan.Files[j].Path })
	return plan, nil
}

// rendering is one target's rendering of one Provider and its outcome.
type rendering struct {
	t     Target
	p     *ir.Provider
	owned string
	files []emit.File
	err   error
}

// run renders r.p with r.t and checks that the files stay in the
// directory the target owns for it.
func (r *rendering) run(root string) {
	r.owned = r.t.ownedDir(r.p)
	if r.files, r.err = r.t.render(r.p, root); r.err == nil {
		r.err = checkPaths(r.owned, r.files)
	}
}

// CheckTargets reports an unknown name among --target names, so a typo
// fails before any spec is read.
func CheckTargets(names []string) error {
	_, err := selectTargets(names)
	return err
}

// selectTargets resolves --target names, keeping registration order.
func selectTargets(names []string) ([]Target, error) {
	if len(names) == 0 {
		return Targets(), nil
	}
	var out []Target
	for _, t := range Targets() {
		if slices.Contains(names, t.Name) {
			out = append(out, t)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(out, func(t Target) bool { return t.Name == n }) {
			return nil, fmt.Errorf("unknown target %q (available: %s)", n, strings.Join(TargetNames(), ", "))
		}
	}
	return out, nil
}

// TargetNames lists the registered targets' names.
func TargetNames() []string {
	var out []string
	for _, t := range Targets() {
		out = append(out, t.Name)
	}
	return out
}

// checkPaths keeps every emitted file inside the target's directory for
// the Provider, and unique.
func checkPaths(owned string, files []emit.File) error {
	seen := map[string]bool{}
	for _, f := range files {
		clean := path.Clean(f.Path)
		if clean != f.Path || !strings.HasPrefix(f.Path, owned+"/") {
			return fmt.Errorf("emitted path %q is outside %s/", f.Path, owned)
		}
		if seen[f.Path] {
			return fmt.Errorf("path %q emitted twice", f.Path)
		}
		seen[f.Path] = true
	}
	return nil
}
