// The languages of the main build (pkg/v3 v3.259.0, the engine's version).

package main

import (
	"fmt"
	"path"
	"runtime/debug"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

const pulumiGoSDK = "github.com/pulumi/pulumi/sdk/v3"

func init() {
	generators["go"] = generateGo
	generators["python"] = func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error) {
		return python.GeneratePackage(tool, pkg, nil, loader)
	}
	generators["nodejs"] = func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error) {
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, loader)
	}
}

// generateGo adds what makes the output a module of its own: the generator
// writes a go.mod only for "supportPack" schemas, and then pins an SDK older
// than the one this generator was built with.
func generateGo(pkg *schema.Package, _ schema.ReferenceLoader) (map[string][]byte, error) {
	files, err := gogen.GeneratePackage(tool, pkg, nil)
	if err != nil {
		return nil, err
	}
	modulePath, err := goModulePath(pkg, files)
	if err != nil {
		return nil, err
	}
	goMod, err := goModFile(modulePath, files["go.mod"])
	if err != nil {
		return nil, err
	}
	files["go.mod"] = goMod
	return files, nil
}

// goModulePath is the folder holding the root package: the schema's
// importBasePath minus its last element (or its explicit modulePath).
func goModulePath(pkg *schema.Package, files map[string][]byte) (string, error) {
	info, _ := pkg.Language["go"].(gogen.GoPackageInfo)
	if info.ModulePath != "" {
		return info.ModulePath, nil
	}
	base := info.ImportBasePath
	if base == "" {
		base = gogen.ExtractImportBasePath(pkg.Reference())
	}
	// The go.mod sits at the output's root, so the root package's folder
	// there must be the import path's last element.
	root := path.Base(base) + "/"
	for name := range files {
		if strings.HasPrefix(name, root) {
			return path.Dir(base), nil
		}
	}
	return "", fmt.Errorf("importBasePath %s ends in %q, but the generator wrote no folder of that name", base, path.Base(base))
}

// goModFile keeps a go.mod the generator wrote, else starts one, and makes it
// require at least the Go SDK this program was built with (whose types the
// generated code was written against). No go.sum: run `go mod tidy` first.
func goModFile(modulePath string, generated []byte) ([]byte, error) {
	var file *modfile.File
	var err error
	if generated != nil {
		if file, err = modfile.Parse("go.mod", generated, nil); err != nil {
			return nil, fmt.Errorf("the generated go.mod does not parse: %w", err)
		}
	} else {
		file = &modfile.File{}
		if err = file.AddModuleStmt(modulePath); err != nil {
			return nil, err
		}
		if err = file.AddGoStmt("1.25"); err != nil {
			return nil, err
		}
	}
	want := builtWithSDK()
	current := ""
	for _, req := range file.Require {
		if req.Mod.Path == pulumiGoSDK {
			current = req.Mod.Version
		}
	}
	if current == "" || semver.Compare(current, want) < 0 {
		if err = file.AddRequire(pulumiGoSDK, want); err != nil {
			return nil, err
		}
	}
	file.Cleanup()
	return modfile.Format(file.Syntax), nil
}

// builtWithSDK is the sdk/v3 version linked into this binary, from its build information.
func builtWithSDK() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == pulumiGoSDK {
				if dep.Replace != nil {
					return dep.Replace.Version
				}
				return dep.Version
			}
		}
	}
	panic("no " + pulumiGoSDK + " in the build information; build with module support")
}
