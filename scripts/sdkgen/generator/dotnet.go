// The .NET build (pkg/v3 v3.206.0): pkg/v3 lost its .NET generator before
// v3.259.0, and the module that holds it now (pulumi-dotnet) is not served by
// the Go module proxy here. v3.206.0 is the pkg/v3 the YAML language host
// already downloads.

package main

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"net/http"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func init() {
	generators["dotnet"] = func(pkg *schema.Package, _ schema.ReferenceLoader) (map[string][]byte, error) {
		return dotnet.GeneratePackage(tool, pkg, nil, nil)
	}
	http.DefaultClient.Transport = placeholderLogo{next: http.DefaultTransport}
}

// placeholderLogo answers the one download the .NET generator makes. Its
// NuGet package icon (logo.png, named in the .csproj) is fetched with
// http.Get from the schema's logoUrl, else from Pulumi's logo on GitHub,
// which these machines cannot reach. That default is answered with a blank
// 64×64 PNG, so the output never depends on the network; a schema's own
// logoUrl is still fetched.
type placeholderLogo struct{ next http.RoundTripper }

func (t placeholderLogo) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != "raw.githubusercontent.com" || !strings.HasSuffix(req.URL.Path, "/pulumi_logo_64x64.png") {
		return t.next.RoundTrip(req)
	}
	var logo bytes.Buffer
	if err := png.Encode(&logo, image.NewNRGBA(image.Rect(0, 0, 64, 64))); err != nil {
		return nil, err
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"image/png"}},
		Body:          io.NopCloser(&logo),
		ContentLength: int64(logo.Len()),
		Request:       req,
	}, nil
}
