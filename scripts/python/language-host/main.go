// pulumi-language-python for this project's tests: the Python language host
// of sdk/v3 v3.79.0 (the newest the Go module proxy serves; see
// ../provision.ts), behind a proxy that bridges what it predates:
//   - GenerateProgram (`pulumi import`), which it lacks, is answered with
//     Pulumi's own Python program generator at the engine's version (pkg/v3
//     codegen/python), as newer Python hosts answer it;
//   - `runtime.options.virtualenv` in Pulumi.yaml reaches a v3.79.0 host only
//     as its `-virtualenv` and `-root` flags, which today's engine no longer
//     passes (it sends them in each request's ProgramInfo): a call carrying a
//     virtualenv goes to a v3.79.0 host started with those flags, so the
//     program runs with the project's virtualenv as the host users have runs it.
// Every other call goes through unchanged.
//
// Run as the engine runs a language host: `pulumi-language-python [flags]
// <engine address>`; it starts the v3.79.0 host (`v3.79.0/pulumi-language-python`
// beside this binary) with the same arguments, and prints its own port.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	codegen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

const generateProgram = "/pulumirpc.LanguageRuntime/GenerateProgram"

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python (certreseller test host): %v\n", err)
		os.Exit(1)
	}
}

// hosts are the v3.79.0 hosts this proxy runs: one without flags (started
// first; when it exits, so does the proxy, as it watches the engine), and
// one per virtualenv and project root the engine's requests name.
type hosts struct {
	inner string
	args  []string
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
}

// start runs a v3.79.0 host with the given flags before the engine's
// arguments and connects to the port it prints.
func (h *hosts) start(flags []string) (*grpc.ClientConn, *exec.Cmd, error) {
	cmd := exec.Command(h.inner, append(flags, h.args...)...)
	cmd.Stderr = os.Stderr
	// The engine ends a language host by killing it: the inner hosts go with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("starting %s: %w", h.inner, err)
	}
	lines := bufio.NewReader(stdout)
	port, err := lines.ReadString('\n')
	if err != nil {
		return nil, nil, fmt.Errorf("%s printed no port: %w", h.inner, err)
	}
	go func() { _, _ = io.Copy(os.Stderr, lines) }()
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{}), grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(1<<30)))
	return conn, cmd, err
}

// forRequest is the host for a request: the one started with the request's
// virtualenv and root directory as flags, or the flagless one.
func (h *hosts) forRequest(method string, first *frame) (*grpc.ClientConn, error) {
	virtualenv, root := programOptions(method, first)
	key := ""
	if virtualenv != "" {
		key = virtualenv + "\x00" + root
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if conn, ok := h.conns[key]; ok {
		return conn, nil
	}
	conn, _, err := h.start([]string{"-virtualenv=" + virtualenv, "-root=" + root})
	if err != nil {
		return nil, err
	}
	h.conns[key] = conn
	return conn, nil
}

// programOptions reads `runtime.options.virtualenv` and the project root
// from the request's ProgramInfo, when its type has one.
func programOptions(method string, first *frame) (virtualenv, root string) {
	name := strings.TrimPrefix(method, "/pulumirpc.LanguageRuntime/")
	service, err := protoregistry.GlobalFiles.FindDescriptorByName("pulumirpc.LanguageRuntime")
	if err != nil || first == nil {
		return "", ""
	}
	md := service.(protoreflect.ServiceDescriptor).Methods().ByName(protoreflect.Name(name))
	if md == nil {
		return "", ""
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.Input().FullName())
	if err != nil {
		return "", ""
	}
	msg := mt.New().Interface()
	if proto.Unmarshal(first.payload, msg) != nil {
		return "", ""
	}
	withInfo, ok := msg.(interface{ GetInfo() *pulumirpc.ProgramInfo })
	if !ok || withInfo.GetInfo() == nil {
		return "", ""
	}
	info := withInfo.GetInfo()
	if v, ok := info.GetOptions().AsMap()["virtualenv"].(string); ok {
		virtualenv = v
	}
	return virtualenv, info.GetRootDirectory()
}

func run() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	h := &hosts{inner: filepath.Join(filepath.Dir(self), "v3.79.0", "pulumi-language-python"), args: os.Args[1:], conns: map[string]*grpc.ClientConn{}}
	conn, cmd, err := h.start(nil)
	if err != nil {
		return err
	}
	h.conns[""] = conn
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	server := grpc.NewServer(
		grpc.ForceServerCodec(rawCodec{}),
		grpc.UnknownServiceHandler(proxy(h)),
		grpc.MaxRecvMsgSize(1<<30), grpc.MaxSendMsgSize(1<<30))
	fmt.Printf("%d\n", listener.Addr().(*net.TCPAddr).Port)
	go func() {
		_ = cmd.Wait()
		server.Stop()
	}()
	return server.Serve(listener)
}

// frame is one message passed through as its wire bytes.
type frame struct{ payload []byte }

// rawCodec passes frames through untouched and encodes typed messages as protobuf.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) ([]byte, error) {
	if f, ok := v.(*frame); ok {
		return f.payload, nil
	}
	return proto.Marshal(v.(proto.Message))
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	if f, ok := v.(*frame); ok {
		f.payload = append([]byte(nil), data...)
		return nil
	}
	return proto.Unmarshal(data, v.(proto.Message))
}

// proxy answers GenerateProgram itself and forwards every other call,
// streams included, to the host its first request picks.
func proxy(h *hosts) grpc.StreamHandler {
	return func(_ any, ss grpc.ServerStream) error {
		method, _ := grpc.MethodFromServerStream(ss)
		if method == generateProgram {
			req := &pulumirpc.GenerateProgramRequest{}
			if err := ss.RecvMsg(req); err != nil {
				return err
			}
			resp, err := generate(ss.Context(), req)
			if err != nil {
				return err
			}
			return ss.SendMsg(resp)
		}
		// Every LanguageRuntime call sends one request (none streams from the
		// client): read it first, to see which host it is for.
		var first *frame
		if f := (&frame{}); ss.RecvMsg(f) == nil {
			first = f
		}
		conn, err := h.forRequest(method, first)
		if err != nil {
			return err
		}
		ctx := ss.Context()
		if md, ok := metadata.FromIncomingContext(ctx); ok {
			ctx = metadata.NewOutgoingContext(ctx, md.Copy())
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		cs, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method)
		if err != nil {
			return err
		}
		go func() {
			for f := first; f != nil; {
				if cs.SendMsg(f) != nil {
					return
				}
				next := &frame{}
				if ss.RecvMsg(next) != nil {
					break
				}
				f = next
			}
			_ = cs.CloseSend()
		}()
		headerSent := false
		for {
			f := &frame{}
			if err := cs.RecvMsg(f); err != nil {
				ss.SetTrailer(cs.Trailer())
				if err == io.EOF {
					return nil
				}
				return err
			}
			if !headerSent {
				if header, err := cs.Header(); err == nil {
					_ = ss.SendHeader(header)
				}
				headerSent = true
			}
			if err := ss.SendMsg(f); err != nil {
				return err
			}
		}
	}
}

// generate is GenerateProgram as Pulumi's language hosts answer it: bind the
// PCL with the engine's schema loader, generate Python.
func generate(_ context.Context, req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	parser := syntax.NewParser()
	for path, contents := range req.Source {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.Strict {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiagnostics}, nil
	}
	files, diags, err := codegen.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: append(rpcDiagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)}, nil
}
