package oci_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/google/go-containerregistry/pkg/name"
	gcrremote "github.com/google/go-containerregistry/pkg/v1/remote"
	gcrtypes "github.com/google/go-containerregistry/pkg/v1/types"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/testing/ociregistry"
	"github.com/mur-go/mur/internal/testing/testguest"
)

func pkg(t *testing.T, name, version, extra string) []byte {
	return testguest.Zip(t, "murmur.yaml", "name: "+name+"\nversion: '"+version+"'\nruntime: tool\n", "t.wasm", "\x00asm"+name+version+extra)
}

func meta(name, version string, platforms ...artifact.Platform) artifact.Meta {
	m := artifact.FallbackMeta(name, version)
	m.ArtifactRuntime = "tool"
	m.Platforms = append(m.Platforms, platforms...)
	if len(platforms) > 0 {
		m.Runtime = artifact.Native
	}
	return m
}

var (
	linuxAMD = artifact.Platform{OS: "linux", Arch: "x86_64"}
	linuxARM = artifact.Platform{OS: "linux", Arch: "aarch64"}
)

// open starts a registry (with auth when auth is set), points
// DOCKER_CONFIG at its credentials and opens oci://HOST/murmur.
func open(t *testing.T, auth bool) (*ociregistry.Registry, *oci.Registry, []crane.Option) {
	t.Helper()
	r := ociregistry.Start(t, auth)
	t.Setenv("DOCKER_CONFIG", r.DockerConfig(t))
	reg, err := oci.New("oci://"+r.Host+"/murmur", oci.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r, reg, []crane.Option{crane.Insecure}
}

func code(err error) string {
	var d *diag.Error
	if errors.As(err, &d) {
		return string(d.Code)
	}
	return ""
}

func TestPublishResolve(t *testing.T) {
	r, reg, opts := open(t, false)
	ctx := context.Background()
	data := pkg(t, "hello", "1.0.0", "")
	pub, err := reg.Publish(ctx, meta("hello", "1.0.0"), data)
	if err != nil {
		t.Fatal(err)
	}
	if pub.ArtifactID != "hello@1.0.0" || pub.SHA256 != artifact.SHA256Hex(data) {
		t.Fatalf("published %+v", pub)
	}
	// What was pushed, as crane sees it.
	m, raw := manifest(t, r.Host+"/murmur/hello:1.0.0", opts)
	want := map[string]string{oci.AnnotationName: "hello", oci.AnnotationVersion: "1.0.0", oci.AnnotationRuntime: "wasm",
		oci.AnnotationPlatforms: "", oci.AnnotationSHA256: pub.SHA256, oci.AnnotationRole: "tool"}
	if m.ArtifactType != oci.ArtifactType || len(m.Layers) != 1 || m.Layers[0].MediaType != oci.LayerMediaType ||
		string(m.Layers[0].Digest) != "sha256:"+pub.SHA256 || !equalMaps(m.Annotations, want) {
		t.Fatalf("pushed manifest:\n%s", raw)
	}
	blob, err := os.ReadFile(r.BlobPath(pub.SHA256))
	if err != nil || string(blob) != string(data) {
		t.Fatalf("the registry holds other bytes than the package (%v)", err)
	}
	got, err := reg.Resolve(ctx, "hello", "1.0.0", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Data) != string(data) || got.SHA256 != pub.SHA256 || got.Platform != nil || got.Verify() != nil {
		t.Fatalf("resolved %s sha %s platform %v", got.Name, got.SHA256, got.Platform)
	}
	// The same platform asked for falls back to the generic package.
	if got, err := reg.Resolve(ctx, "hello", "1.0.0", &linuxAMD); err != nil || got.Platform != nil {
		t.Fatalf("resolve for linux-x86_64: %v, %v", got, err)
	}

	for _, c := range []struct {
		name string
		err  func() error
		code string
		msg  string
	}{
		{"again", func() error { _, err := reg.Publish(ctx, meta("hello", "1.0.0"), data); return err }, "E-REG-003", "already exists"},
		{"missing tag", func() error { _, err := reg.Resolve(ctx, "hello", "2.0.0", nil); return err }, "E-REG-001", "hello@2.0.0 not found in OCI registry 127.0.0.1:"},
		{"missing repository", func() error { _, err := reg.Resolve(ctx, "nobody", "1.0.0", nil); return err }, "E-REG-001", "not found"},
		{"reserved", func() error {
			_, err := reg.Publish(ctx, meta("hello", "latest"), pkg(t, "hello", "latest", ""))
			return err
		}, "E-REG-004", "reserved"},
		{"other manifest", func() error { _, err := reg.Publish(ctx, meta("hello", "3.0.0"), data); return err }, "E-IO-003", "its murmur.yaml says hello@1.0.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if code(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v (%s), want %s with %q", err, code(err), c.code, c.msg)
			}
		})
	}
}

func TestNativeVariantsIndex(t *testing.T) {
	r, reg, opts := open(t, false)
	ctx := context.Background()
	amd, arm := pkg(t, "nat", "0.1.0", "amd"), pkg(t, "nat", "0.1.0", "arm")
	for _, v := range []struct {
		p    artifact.Platform
		data []byte
	}{{linuxAMD, amd}, {linuxARM, arm}} {
		if _, err := reg.Publish(ctx, meta("nat", "0.1.0", v.p), v.data); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := reg.Publish(ctx, meta("nat", "0.1.0", linuxARM), arm); code(err) != "E-REG-003" {
		t.Fatalf("publishing a platform again: %v", err)
	}
	raw, err := crane.Manifest(r.Host+"/murmur/nat:0.1.0", opts...)
	if err != nil {
		t.Fatal(err)
	}
	var idx ocispec.Index
	if err := json.Unmarshal(raw, &idx); err != nil || idx.MediaType != ocispec.MediaTypeImageIndex || len(idx.Manifests) != 2 ||
		idx.Manifests[0].Platform.Architecture != "amd64" || idx.Manifests[1].Platform.Architecture != "arm64" {
		t.Fatalf("index:\n%s", raw)
	}
	for _, c := range []struct {
		p    *artifact.Platform
		want []byte
	}{{&linuxAMD, amd}, {&linuxARM, arm}} {
		got, err := reg.Resolve(ctx, "nat", "0.1.0", c.p)
		if err != nil || string(got.Data) != string(c.want) || *got.Platform != *c.p {
			t.Fatalf("resolve %v: %v", c.p, err)
		}
	}
	darwin := artifact.Platform{OS: "darwin", Arch: "aarch64"}
	for _, p := range []*artifact.Platform{&darwin, nil} {
		if _, err := reg.Resolve(ctx, "nat", "0.1.0", p); code(err) != "E-REG-001" {
			t.Fatalf("resolve %v: %v, want E-REG-001", p, err)
		}
	}
	// A generic package is not published over the index either.
	if _, err := reg.Publish(ctx, meta("nat", "0.1.0"), amd); code(err) != "E-REG-003" {
		t.Fatalf("publishing generic over native variants: %v", err)
	}
}

// rawManifest is a manifest pushed as is, to forge what a registry serves.
type rawManifest []byte

func (m rawManifest) RawManifest() ([]byte, error)           { return m, nil }
func (m rawManifest) MediaType() (gcrtypes.MediaType, error) { return gcrtypes.OCIManifestSchema1, nil }

// TestTampering changes what the registry serves under a published tag;
// every change is refused before any byte is returned.
func TestTampering(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		tamper func(t *testing.T, r *ociregistry.Registry, opts []crane.Option, m ocispec.Manifest)
		msg    string
	}{
		{"corrupt blob", func(t *testing.T, r *ociregistry.Registry, _ []crane.Option, m ocispec.Manifest) {
			path := r.BlobPath(m.Layers[0].Digest.Encoded())
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 0xff
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "does not match its digest"},
		{"tag re-pointed to another package", func(t *testing.T, r *ociregistry.Registry, opts []crane.Option, _ ocispec.Manifest) {
			if err := crane.Copy(r.Host+"/murmur/other:1.0.0", r.Host+"/murmur/victim:1.0.0", opts...); err != nil {
				t.Fatal(err)
			}
		}, "its annotations name other@1.0.0"},
		{"annotated sha256 of other bytes", func(t *testing.T, r *ociregistry.Registry, opts []crane.Option, m ocispec.Manifest) {
			m.Annotations[oci.AnnotationSHA256] = strings.Repeat("ab", 32)
			put(t, r.Host+"/murmur/victim:1.0.0", m)
		}, "is not the annotated package sha256"},
		{"not a package", func(t *testing.T, r *ociregistry.Registry, opts []crane.Option, m ocispec.Manifest) {
			m.ArtifactType = "application/vnd.example.other"
			put(t, r.Host+"/murmur/victim:1.0.0", m)
		}, "not a Murmur package"},
		{"annotations holding terminal controls", func(t *testing.T, r *ociregistry.Registry, opts []crane.Option, m ocispec.Manifest) {
			m.Annotations[oci.AnnotationName] = "evil\x1b]0;pwned\a\r\nfake"
			put(t, r.Host+"/murmur/victim:1.0.0", m)
		}, `its annotations name evil\x1b]0;pwned\a\r\nfake@1.0.0`},
		{"layer larger than the cap", func(t *testing.T, r *ociregistry.Registry, opts []crane.Option, m ocispec.Manifest) {
			m.Layers[0].Size = 1 << 40
			put(t, r.Host+"/murmur/victim:1.0.0", m)
		}, "at most"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, reg, opts := open(t, false)
			publishTools(t, reg, "victim", "other")
			m, _ := manifest(t, r.Host+"/murmur/victim:1.0.0", opts)
			c.tamper(t, r, opts, m)
			got, err := reg.Resolve(ctx, "victim", "1.0.0", nil)
			if code(err) != "E-REG-002" || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), r.Host) {
				t.Fatalf("resolve after tampering: %v, %v; want E-REG-002 naming the registry and %q", got, err, c.msg)
			}
			if i := strings.IndexFunc(err.Error(), func(c rune) bool { return unicode.IsControl(c) || unicode.In(c, unicode.Cf) }); i >= 0 {
				t.Fatalf("the error holds a control character at %d: %q", i, err.Error())
			}
		})
	}
}

// publishTools publishes a tool package of each name at 1.0.0.
func publishTools(t *testing.T, reg *oci.Registry, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := reg.Publish(context.Background(), meta(n, "1.0.0"), pkg(t, n, "1.0.0", "")); err != nil {
			t.Fatal(err)
		}
	}
}

// manifest reads the image manifest at ref as crane sees it, decoded and
// raw.
func manifest(t *testing.T, ref string, opts []crane.Option) (ocispec.Manifest, []byte) {
	t.Helper()
	raw, err := crane.Manifest(ref, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m, raw
}

func put(t *testing.T, ref string, m ocispec.Manifest) {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := gcrremote.Put(r, rawManifest(b)); err != nil {
		t.Fatal(err)
	}
}

func TestAuthentication(t *testing.T) {
	r, reg, opts := open(t, true)
	ctx := context.Background()
	data := pkg(t, "priv", "1.0.0", "")
	if _, err := reg.Publish(ctx, meta("priv", "1.0.0"), data); err != nil {
		t.Fatalf("publish with the Docker config's credentials: %v", err)
	}
	if _, err := crane.Manifest(r.Host+"/murmur/priv:1.0.0", opts...); err != nil {
		t.Fatalf("crane with the same credentials: %v", err)
	}
	for _, c := range []struct {
		name, config string
	}{
		{"no credentials", `{"auths":{}}`},
		{"no config file", ""},
		{"wrong password", `{"auths":{"` + r.Host + `":{"auth":"bXVydGVzdDpub3Bl"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.config != "" {
				if err := os.WriteFile(dir+"/config.json", []byte(c.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("DOCKER_CONFIG", dir)
			reg, err := oci.New("oci://"+r.Host+"/murmur", oci.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = reg.Resolve(ctx, "priv", "1.0.0", nil)
			if err == nil || !strings.Contains(err.Error(), "OCI registry "+r.Host+" refused authentication") {
				t.Fatalf("resolve: %v, want an authentication failure naming %s", err, r.Host)
			}
			if strings.Contains(err.Error(), r.Password) {
				t.Fatalf("the error shows the password: %v", err)
			}
		})
	}
}

func TestParseLocation(t *testing.T) {
	for _, c := range []struct {
		url, host, prefix string
		loopback          bool
		bad               bool
	}{
		{url: "oci://127.0.0.1:5000/murmur", host: "127.0.0.1:5000", prefix: "murmur", loopback: true},
		{url: "oci://localhost/a/b/", host: "localhost", prefix: "a/b", loopback: true},
		{url: "oci://[::1]:5000", host: "[::1]:5000", loopback: true},
		{url: "oci://registry.example.com/murmur", host: "registry.example.com", prefix: "murmur"},
		{url: "oci://", bad: true},
		{url: "oci://host/Upper", bad: true},
	} {
		l, err := oci.ParseLocation(c.url)
		if c.bad {
			if err == nil {
				t.Errorf("%s: accepted", c.url)
			}
			continue
		}
		if err != nil || l.Host != c.host || l.Prefix != c.prefix || l.Loopback() != c.loopback {
			t.Errorf("%s: %+v loopback %v, %v", c.url, l, l.Loopback(), err)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
