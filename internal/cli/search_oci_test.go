package cli

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/google/go-containerregistry/pkg/name"
	gcrremote "github.com/google/go-containerregistry/pkg/v1/remote"
	gcrtypes "github.com/google/go-containerregistry/pkg/v1/types"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/mur-go/mur/internal/store/oci"
	"github.com/mur-go/mur/internal/testing/ociregistry"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// publishOCI publishes a package with murmur.yaml yaml to url with
// mur publish.
func publishOCI(t *testing.T, url, name, version, yaml string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+"-"+version+".mur.zip")
	zip := testguest.Zip(t, "murmur.yaml", "name: "+name+"\nversion: '"+version+"'\n"+yaml, "t.wasm", "\x00asm"+name+version)
	if err := os.WriteFile(path, zip, 0o644); err != nil {
		t.Fatal(err)
	}
	mur(t, "publish", path, "--registry", url).want(t, 0, "Published "+name+"@"+version, "")
}

// ociSearchRegistry starts a registry with htpasswd auth, gives mur its
// credentials through DOCKER_CONFIG, and publishes two packages.
func ociSearchRegistry(t *testing.T) (*ociregistry.Registry, string) {
	t.Helper()
	searchHome(t)
	r := ociregistry.Start(t, true)
	t.Setenv("DOCKER_CONFIG", r.DockerConfig(t))
	url := "oci://" + r.Host + "/murmur"
	publishOCI(t, url, "murmur-tool-git", "1.0.0", "runtime: tool\ndescription: Structured git interface.\n")
	publishOCI(t, url, "murmur-driver-anthropic", "1.10.0", "runtime: driver\ndescription: Anthropic driver.\n")
	return r, url
}

func TestSearchOCI(t *testing.T) {
	r, url := ociSearchRegistry(t)
	for _, c := range []struct {
		query, stdout string
	}{
		{"GIT", "NAME             VERSION  RUNTIME  DESCRIPTION\nmurmur-tool-git  1.0.0    tool     Structured git interface.\n"},
		{"anthropic DRIVER", "NAME                     VERSION  RUNTIME  DESCRIPTION\nmurmur-driver-anthropic  1.10.0   driver   Anthropic driver.\n"},
		{"murmur", "NAME                     VERSION  RUNTIME  DESCRIPTION\nmurmur-driver-anthropic  1.10.0   driver   Anthropic driver.\nmurmur-tool-git          1.0.0    tool     Structured git interface.\n"},
		{"zzznomatch", "No results found.\n"},
	} {
		o := mur(t, "search", c.query, "--registry", url)
		if o.code != 0 || o.stdout != c.stdout || o.stderr != "" {
			t.Errorf("search %q: exit %d\nstdout:\n%s\nstderr:\n%s\nwant stdout:\n%s", c.query, o.code, o.stdout, o.stderr, c.stdout)
		}
		if strings.Contains(o.stdout+o.stderr, r.Password) {
			t.Errorf("search %q printed the registry password", c.query)
		}
	}
	mur(t, "search", "git", "--registry", url, "--limit", "1", "--plain-http").want(t, 0, "murmur-tool-git", "")
	mur(t, "search", "git", "--registry", "local", "--plain-http").want(t, 2, "", "--plain-http applies only to an oci:// registry")
	// Without credentials, the registry refuses and mur says how to log in.
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	o := mur(t, "search", "git", "--registry", url)
	o.want(t, 1, "", "requires credentials and none are configured")
	o.want(t, 1, "", "docker login "+r.Host)
}

// A registry that does not list its catalog, as GHCR, ECR and Docker Hub
// do not, is an error saying so and what to do instead.
func TestSearchOCICatalogRefused(t *testing.T) {
	r, _ := ociSearchRegistry(t)
	target, err := url.Parse("http://" + r.Host)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/v2/_catalog" {
			http.NotFound(w, req)
			return
		}
		proxy.ServeHTTP(w, req)
	}))
	defer front.Close()
	o := mur(t, "search", "git", "--registry", "oci://"+front.Listener.Addr().String()+"/murmur")
	o.want(t, 1, "", "refused to list its catalog (HTTP 404 on /v2/_catalog), so it cannot be searched")
	o.want(t, 1, "", "search an artifacts-index.json by URL instead")
	if o.stdout != "" {
		t.Errorf("stdout %q, want nothing", o.stdout)
	}
}

// forged is a manifest pushed as is.
type forged []byte

func (m forged) RawManifest() ([]byte, error)           { return m, nil }
func (m forged) MediaType() (gcrtypes.MediaType, error) { return gcrtypes.OCIManifestSchema1, nil }

// forge pushes murmur-tool-git:1.0.0's manifest under tag with the
// annotations in notes changed.
func forge(t *testing.T, r *ociregistry.Registry, tag string, notes map[string]string) {
	t.Helper()
	raw, err := crane.Manifest(r.Host+"/murmur/murmur-tool-git:1.0.0", crane.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	maps.Copy(m.Annotations, notes)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := name.ParseReference(r.Host+"/murmur/murmur-tool-git:"+tag, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := gcrremote.Put(ref, forged(b), gcrremote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
		t.Fatal(err)
	}
}

// noControls fails when out holds a control or format character other
// than a newline.
func noControls(t *testing.T, out string) {
	t.Helper()
	for _, c := range out {
		if c != '\n' && (unicode.IsControl(c) || unicode.In(c, unicode.Cf)) {
			t.Fatalf("output holds %U:\n%q", c, out)
		}
	}
}

// Every string the registry chooses is printed escaped: a description
// holding terminal controls, and a forged tag whose annotations do, which
// is skipped with a warning that cannot act on the terminal either.
func TestSearchOCIHostileRegistry(t *testing.T) {
	r, url := ociSearchRegistry(t)
	publishOCI(t, url, "evil", "1.0.0", "runtime: tool\ndescription: \"git \\e]0;pwned\\a \\u202eexe\"\n")
	forge(t, r, "9.0.0", map[string]string{oci.AnnotationName: "git\x1b[2J\r\nfake-row", oci.AnnotationVersion: "9.0.0"})
	o := mur(t, "search", "git", "--registry", url)
	o.want(t, 0, `evil             1.0.0    tool     git \x1b]0;pwned\a \u202eexe`, "warning: skipped "+r.Host+"/murmur/murmur-tool-git:9.0.0: ")
	o.want(t, 0, "murmur-tool-git  1.0.0    tool     Structured git interface.", `its annotations name git\x1b[2J\r\nfake-row@9.0.0`)
	noControls(t, o.stdout+o.stderr)
	if n := strings.Count(o.stderr, "\n"); n != 1 {
		t.Errorf("stderr has %d lines, want one warning:\n%s", n, o.stderr)
	}
}

// The help states the caps Catalog applies.
func TestSearchHelpCaps(t *testing.T) {
	if maxRepos != strconv.Itoa(oci.MaxCatalogRepositories) || maxTags != strconv.Itoa(oci.MaxCatalogTags) {
		t.Fatalf("help says %s repositories and %s tags; oci caps %d and %d", maxRepos, maxTags, oci.MaxCatalogRepositories, oci.MaxCatalogTags)
	}
}

// mur list --registry oci://… lists the same packages as search, with
// the role a forged manifest annotates escaped.
func TestListOCI(t *testing.T) {
	r, url := ociSearchRegistry(t)
	forge(t, r, "2.0.0", map[string]string{oci.AnnotationVersion: "2.0.0", oci.AnnotationRole: "tool\x1b[2J\r\nfake"})
	o := mur(t, "list", "--registry", url)
	want := "" +
		"NAME                     VERSION  RUNTIME              PLATFORMS\n" +
		"murmur-driver-anthropic  1.10.0   driver               —\n" +
		"murmur-tool-git          1.0.0    tool                 —\n" +
		"murmur-tool-git          2.0.0    tool\\x1b[2J\\r\\nfake  —\n"
	if o.code != 0 || o.stdout != want || o.stderr != "" {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s\nwant:\n%s", o.code, o.stdout, o.stderr, want)
	}
	noControls(t, o.stdout)
	o = mur(t, "list", "--registry", url, "--json")
	var rows []listRow
	if err := json.Unmarshal([]byte(o.stdout), &rows); err != nil || len(rows) != 3 || rows[0].Scope != "registry" ||
		rows[0].Packaging != "wasm" || rows[0].Runtime != "driver" {
		t.Errorf("--json: %v\n%s", err, o.stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "--registry", "local"}, "is not an oci:// registry"},
		{[]string{"list", "-g", "--registry", url}, "cannot be used with -g or --all"},
		{[]string{"list", "--plain-http"}, "--plain-http applies only to --registry oci://"},
	} {
		mur(t, c.args...).want(t, 2, "", c.want)
	}
	empty := ociregistry.Start(t, false)
	mur(t, "list", "--registry", "oci://"+empty.Host+"/murmur").want(t, 0, "No artifacts found.\n  looked in oci://"+empty.Host+"/murmur", "")
}
