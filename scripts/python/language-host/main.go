// pulumi-language-python for this project's tests: the Python language host
// of sdk/v3 v3.79.0 (the newest the Go module proxy serves; see
// ../provision.ts), behind a proxy that adds the one call it lacks and
// `pulumi import` needs, GenerateProgram, answered with Pulumi's own Python
// program generator at the engine's version (pkg/v3 codegen/python), as
// newer Python hosts answer it. Every other call goes through unchanged.
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
)

const generateProgram = "/pulumirpc.LanguageRuntime/GenerateProgram"

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-python (certreseller test host): %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	inner := filepath.Join(filepath.Dir(self), "v3.79.0", "pulumi-language-python")
	cmd := exec.Command(inner, os.Args[1:]...)
	cmd.Stderr = os.Stderr
	// The engine ends a language host by killing it: the inner host goes with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", inner, err)
	}
	lines := bufio.NewReader(stdout)
	port, err := lines.ReadString('\n')
	if err != nil {
		return fmt.Errorf("%s printed no port: %w", inner, err)
	}
	go func() { _, _ = io.Copy(os.Stderr, lines) }()

	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{}), grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(1<<30)))
	if err != nil {
		return err
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	server := grpc.NewServer(
		grpc.ForceServerCodec(rawCodec{}),
		grpc.UnknownServiceHandler(proxy(conn)),
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

// proxy answers GenerateProgram itself and forwards every other call, streams included.
func proxy(conn *grpc.ClientConn) grpc.StreamHandler {
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
			for {
				f := &frame{}
				if err := ss.RecvMsg(f); err != nil {
					_ = cs.CloseSend()
					return
				}
				if err := cs.SendMsg(f); err != nil {
					return
				}
			}
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
