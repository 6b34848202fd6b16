// certreseller-sdkgen writes this package's SDKs for other languages from its
// Pulumi schema, calling Pulumi's code generators directly: the language
// plugins that build on these machines cannot answer `pulumi package gen-sdk`
// (see ../README.md).
//
// This folder has no go.mod on purpose: scripts/sdkgen/build.ts copies these
// files into a scratch module outside the repository, pins the Pulumi modules
// there and caches the binary under a hash of the sources. It builds twice:
// main.go + languages.go against pkg/v3 v3.259.0 (Go, Python, Node.js), and
// main.go + dotnet.go against v3.206.0, the .NET generator having left pkg/v3
// in between. main.go therefore uses only APIs both versions have.
//
//	certreseller-sdkgen --schema schema.json --out generated-sdks [--lang go,python] [--version 1.2.3]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generated files' "do not edit" headers give.
const tool = "certreseller-sdkgen"

// outMarker, in the output folder, says its language folders are ours to
// replace: a mistyped --out never has a folder of someone else's deleted.
const outMarker = ".certreseller-sdkgen"

// generateFunc returns one language's SDK files, paths relative to its folder.
type generateFunc func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error)

// generators holds the languages of this build; languages.go or dotnet.go
// registers them, whichever the build copied in.
var generators = map[string]generateFunc{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(tool, flag.ContinueOnError)
	flags.SetOutput(stderr)
	schemaPath := flags.String("schema", "", "the package's schema.json")
	outDir := flags.String("out", "", "output folder; each language is written to <out>/<language>/")
	langs := flags.String("lang", "", "comma-separated languages (default: all of this build: "+strings.Join(languages(), ",")+")")
	version := flags.String("version", "", "package version to stamp, overriding the schema's")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if *schemaPath == "" || *outDir == "" || flags.NArg() > 0 {
		fmt.Fprintf(stderr, "usage: %s --schema <schema.json> --out <dir> [--lang %s] [--version <semver>]\n", tool, strings.Join(languages(), ","))
		return 2
	}
	selected, err := selectLanguages(*langs)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", tool, err)
		return 2
	}

	loader := refusingLoader{}
	pkg, err := bind(*schemaPath, *version, loader, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", tool, err)
		return 1
	}
	for _, lang := range selected {
		// Each language binds afresh: the generators record their own
		// settings on the package (ImportLanguages), so none sees another's.
		if lang != selected[0] {
			if pkg, err = bind(*schemaPath, *version, loader, io.Discard); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", tool, err)
				return 1
			}
		}
		files, err := generators[lang](pkg, loader)
		if err != nil {
			fmt.Fprintf(stderr, "%s: generating %s: %v\n", tool, lang, err)
			return 1
		}
		dir := filepath.Join(*outDir, lang)
		if err := writeFiles(*outDir, dir, files); err != nil {
			fmt.Fprintf(stderr, "%s: writing %s: %v\n", tool, lang, err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: %d files in %s\n", lang, len(files), dir)
	}
	return 0
}

func languages() []string {
	names := make([]string, 0, len(generators))
	for name := range generators {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func selectLanguages(list string) ([]string, error) {
	if list == "" {
		return languages(), nil
	}
	var selected []string
	for _, lang := range strings.Split(list, ",") {
		lang = strings.TrimSpace(lang)
		if _, ok := generators[lang]; !ok {
			return nil, fmt.Errorf("this build has no %q generator (it has %s)", lang, strings.Join(languages(), ", "))
		}
		selected = append(selected, lang)
	}
	return selected, nil
}

// bind reads and binds the schema, printing every diagnostic; any error among
// them fails the run, so no SDK is written from a schema Pulumi rejects.
func bind(schemaPath, version string, loader schema.ReferenceLoader, diagnostics io.Writer) (*schema.Package, error) {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("%s is not a package schema: %w", schemaPath, err)
	}
	if version != "" {
		spec.Version = version
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{})
	for _, diag := range diags {
		fmt.Fprintln(diagnostics, formatDiagnostic(diag))
	}
	if err != nil {
		return nil, fmt.Errorf("binding %s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s does not bind: %d error(s) above", schemaPath, countErrors(diags))
	}
	return pkg, nil
}

func formatDiagnostic(diag *hcl.Diagnostic) string {
	severity := "warning"
	if diag.Severity == hcl.DiagError {
		severity = "error"
	}
	line := severity + ": "
	// The binder names the schema path of the problem (#/resources/...) as the subject's file name.
	if diag.Subject != nil && diag.Subject.Filename != "" {
		line += diag.Subject.Filename + ": "
	}
	line += diag.Summary
	if diag.Detail != "" && diag.Detail != diag.Summary {
		line += ": " + diag.Detail
	}
	return line
}

func countErrors(diags hcl.Diagnostics) int {
	n := 0
	for _, diag := range diags {
		if diag.Severity == hcl.DiagError {
			n++
		}
	}
	return n
}

// writeFiles replaces dir with exactly files: an SDK regenerated after a
// resource was removed must not keep the old resource's files.
func writeFiles(outDir, dir string, files map[string][]byte) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	marker := filepath.Join(outDir, outMarker)
	if _, err := os.Stat(marker); errors.Is(err, os.ErrNotExist) {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			return fmt.Errorf("refusing to replace %s: it was not written by %s (no %s in %s)", dir, tool, outMarker, outDir)
		}
		if err := os.WriteFile(marker, []byte("Written by "+tool+"; its language folders are replaced on each run.\n"), 0o644); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, content := range files {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// refusingLoader stands in for the plugin loader, which would download or
// start provider plugins: this package's schema refers to no other package,
// and one that does gets a clear error instead.
type refusingLoader struct{}

func (refusingLoader) refuse(name string) error {
	return fmt.Errorf("the schema refers to package %q; %s generates self-contained schemas only", name, tool)
}

func (l refusingLoader) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.refuse(name)
}

func (l refusingLoader) LoadPackageV2(_ context.Context, descriptor *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.refuse(descriptor.Name)
}

func (l refusingLoader) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.refuse(name)
}

func (l refusingLoader) LoadPackageReferenceV2(_ context.Context, descriptor *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, l.refuse(descriptor.Name)
}
