package oci_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/google/go-containerregistry/pkg/v1/random"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/testing/ociregistry"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// described is a package whose murmur.yaml has a role and a description.
func described(t *testing.T, name, version, role, desc string) []byte {
	return testguest.Zip(t, "murmur.yaml", "name: "+name+"\nversion: '"+version+"'\nruntime: "+role+"\ndescription: "+desc+"\n", "t.wasm", "\x00asm"+name+version)
}

// listing is Catalog's result in one comparable line per entry.
func listing(found []oci.Listed) []string {
	var out []string
	for _, l := range found {
		d := "-"
		if l.Description != nil {
			d = *l.Description
		}
		out = append(out, l.Name+"@"+l.Version+" "+l.Runtime+" "+strings.Join(l.Platforms, ",")+" "+d)
	}
	return out
}

// TestCatalog lists what mur published under the prefix, through
// pages of two, with credentials, and nothing from other prefixes.
func TestCatalog(t *testing.T) {
	r, reg, _ := open(t, true)
	ctx := context.Background()
	for _, p := range []struct{ name, version, role, desc string }{
		{"hello", "1.0.0", "tool", "Says hello."}, {"hello", "1.1.0", "tool", "Says hello twice."}, {"git", "2.0.0", "driver", "A git driver."},
	} {
		if _, err := reg.Publish(ctx, meta(p.name, p.version), described(t, p.name, p.version, p.role, p.desc)); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []struct {
		p     artifact.Platform
		extra string
	}{{linuxAMD, "amd"}, {linuxARM, "arm"}} {
		if _, err := reg.Publish(ctx, meta("nat", "0.1.0", p.p), pkg(t, "nat", "0.1.0", p.extra)); err != nil {
			t.Fatal(err)
		}
	}
	// Neighbours of the prefix in the catalog's order, and below it.
	for _, other := range []string{"aaa/x", "murmur-x/y", "murmur/deeper/pkg", "zzz/y"} {
		o, err := oci.New("oci://"+r.Host+"/"+other[:strings.LastIndex(other, "/")], oci.Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := other[strings.LastIndex(other, "/")+1:]
		if _, err := o.Publish(ctx, meta(n, "1.0.0"), pkg(t, n, "1.0.0", "")); err != nil {
			t.Fatal(err)
		}
	}
	reg.SetCatalogLimits(500, 2000, 2)
	found, skipped, err := reg.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"git@2.0.0 driver  A git driver.", "hello@1.0.0 tool  Says hello.", "hello@1.1.0 tool  Says hello twice.",
		"nat@0.1.0 tool linux-x86_64,linux-aarch64 -"}
	if got := listing(found); strings.Join(got, "\n") != strings.Join(want, "\n") || len(skipped) != 0 {
		t.Fatalf("catalog:\n%s\nskipped %v\nwant:\n%s", strings.Join(got, "\n"), skipped, strings.Join(want, "\n"))
	}
}

// TestCatalogCaps: a catalog past a cap is refused as too large to
// search, never listed in part.
func TestCatalogCaps(t *testing.T) {
	_, reg, _ := open(t, false)
	ctx := context.Background()
	for _, v := range []string{"1.0.0", "1.1.0"} {
		for _, n := range []string{"a", "b"} {
			if _, err := reg.Publish(ctx, meta(n, v), pkg(t, n, v, "")); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name           string
		repos, tags, n int
		want           string
	}{
		{"repositories", 1, 100, 1, "more than 1 package repositories under oci://"},
		{"tags", 10, 3, 1, "more than 3 tags under oci://"},
		{"at the caps", 2, 4, 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg.SetCatalogLimits(c.repos, c.tags, c.n)
			found, _, err := reg.Catalog(ctx)
			if c.want == "" {
				if err != nil || len(found) != 4 {
					t.Fatalf("catalog: %v, %v", listing(found), err)
				}
				return
			}
			if code(err) != "E-IO-003" || !strings.Contains(err.Error(), "too large to search: it holds "+c.want) || found != nil {
				t.Fatalf("catalog: %v, %v; want E-IO-003 with %q", listing(found), err, c.want)
			}
		})
	}
}

// TestCatalogRefused: a registry that does not list its catalog (GHCR,
// ECR and Docker Hub refuse it) is reported as such, and a registry
// that wants credentials as that.
func TestCatalogRefused(t *testing.T) {
	r := ociregistry.Start(t, false)
	target, err := url.Parse("http://" + r.Host)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	for _, status := range []int{http.StatusNotFound, http.StatusForbidden, http.StatusUnauthorized} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if req.URL.Path == "/v2/_catalog" {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(status)
					w.Write([]byte(`{"errors":[{"code":"UNSUPPORTED","message":"catalog is not offered"}]}`))
					return
				}
				proxy.ServeHTTP(w, req)
			}))
			defer front.Close()
			t.Setenv("DOCKER_CONFIG", r.DockerConfig(t))
			reg, err := oci.New("oci://"+front.Listener.Addr().String()+"/murmur", oci.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = reg.Catalog(context.Background())
			if code(err) != "E-IO-003" || !strings.Contains(err.Error(), "refused to list its catalog") {
				t.Fatalf("catalog: %v", err)
			}
		})
	}
	auth := ociregistry.Start(t, true)
	for _, c := range []struct{ name, config, want string }{
		{"no credentials", `{"auths":{}}`, "requires credentials and none are configured"},
		{"wrong password", `{"auths":{"` + auth.Host + `":{"auth":"bXVydGVzdDpub3Bl"}}}`, "refused to list its catalog (HTTP 401"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(dir+"/config.json", []byte(c.config), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("DOCKER_CONFIG", dir)
			reg, err := oci.New("oci://"+auth.Host+"/murmur", oci.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = reg.Catalog(context.Background())
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), auth.Password) {
				t.Fatalf("catalog: %v, want %q", err, c.want)
			}
		})
	}
}

// TestCatalogSkipsHostileTags: tags that are not packages mur published,
// or were tampered with, are skipped with the reason, and the rest is
// listed.
func TestCatalogSkipsHostileTags(t *testing.T) {
	r, reg, opts := open(t, false)
	ctx := context.Background()
	publishTools(t, reg, "good", "victim", "other")
	m, _ := manifest(t, r.Host+"/murmur/victim:1.0.0", opts)
	m.Annotations[oci.AnnotationSHA256] = strings.Repeat("ab", 32)
	m.Annotations[oci.AnnotationVersion] = "2.0.0"
	put(t, r.Host+"/murmur/victim:2.0.0", m)
	if err := crane.Copy(r.Host+"/murmur/other:1.0.0", r.Host+"/murmur/victim:3.0.0", opts...); err != nil {
		t.Fatal(err)
	}
	img, err := random.Image(64, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := crane.Push(img, r.Host+"/murmur/image:latest", opts...); err != nil {
		t.Fatal(err)
	}
	found, skipped, err := reg.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(listing(found), "\n"); got != "good@1.0.0 tool  -\nother@1.0.0 tool  -\nvictim@1.0.0 tool  -" {
		t.Fatalf("listed:\n%s", got)
	}
	want := map[string]string{
		r.Host + "/murmur/image:latest": "not a Murmur package",
		r.Host + "/murmur/victim:2.0.0": "is not the annotated package sha256",
		r.Host + "/murmur/victim:3.0.0": "its annotations name other@1.0.0",
	}
	if len(skipped) != len(want) {
		t.Fatalf("skipped %v, want %v", skipped, want)
	}
	for _, s := range skipped {
		if w, ok := want[s.Ref]; !ok || code(s.Err) != "E-REG-002" || !strings.Contains(s.Err.Error(), w) {
			t.Errorf("skipped %s: %v, want E-REG-002 with %q", s.Ref, s.Err, w)
		}
	}
}
