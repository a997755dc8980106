package oci

import (
	"slices"
	"testing"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/mur-go/mur/internal/format/artifact"
)

// FuzzManifest feeds untrusted manifest and index bytes to the decoders:
// they never panic, and a manifest they accept has one package layer
// whose digest is the annotated sha256, within the size cap.
func FuzzManifest(f *testing.F) {
	f.Add([]byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"application/vnd.murmur.package.v1","config":{"mediaType":"application/vnd.oci.empty.v1+json","digest":"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a","size":2},"layers":[{"mediaType":"application/vnd.murmur.package.v1+zip","digest":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","size":10}],"annotations":{"dev.murmur.package.name":"a","dev.murmur.package.version":"1.0.0","dev.murmur.package.sha256":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}`))
	f.Add([]byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","size":3,"platform":{"os":"linux","architecture":"amd64"}}]}`))
	f.Add([]byte(`{"layers":null}`))
	r := &Registry{loc: Location{Host: "example.test"}}
	p := artifact.Platform{OS: "linux", Arch: "x86_64"}
	f.Fuzz(func(t *testing.T, raw []byte) {
		desc := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest}
		if layer, notes, err := r.checkManifest(raw, desc, "a", "1.0.0"); err == nil {
			if layer.Digest.Encoded() != notes[AnnotationSHA256] || layer.Size <= 0 || layer.MediaType != LayerMediaType {
				t.Fatalf("accepted layer %+v with annotations %v", layer, notes)
			}
		}
		for _, want := range []*artifact.Platform{nil, &p} {
			if d, served, err := r.pick(raw, "a", "1.0.0", want); err == nil && (d.MediaType != ocispec.MediaTypeImageManifest || served != nil && want == nil) {
				t.Fatalf("picked %+v (%v) for %v", d, served, want)
			}
		}
	})
}

// FuzzListing feeds untrusted manifest and index bytes to what Catalog
// decodes: it never panics, a listing names the package asked for, and
// the variants of an index are package manifests with valid digests,
// never more than maxIndexEntries.
func FuzzListing(f *testing.F) {
	f.Add([]byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","artifactType":"application/vnd.murmur.package.v1","config":{"mediaType":"application/vnd.oci.empty.v1+json","digest":"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a","size":2},"layers":[{"mediaType":"application/vnd.murmur.package.v1+zip","digest":"sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","size":10}],"annotations":{"dev.murmur.package.name":"a","dev.murmur.package.version":"1.0.0","dev.murmur.package.sha256":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","dev.murmur.package.platforms":"linux-x86_64,,x","dev.murmur.package.description":"d"}}`))
	f.Add([]byte(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:zz","size":3}]}`))
	f.Add([]byte(`{"manifests":null}`))
	r := &Registry{loc: Location{Host: "example.test"}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		desc := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest}
		if l, err := r.listed(raw, desc, "a", "1.0.0"); err == nil {
			if l.Name != "a" || l.Version != "1.0.0" || l.Platforms == nil || slices.Contains(l.Platforms, "") {
				t.Fatalf("listed %+v", l)
			}
		}
		if vs, err := r.variants(raw, "a", "1.0.0"); err == nil {
			if len(vs) == 0 || len(vs) > maxIndexEntries {
				t.Fatalf("%d variants", len(vs))
			}
			for _, v := range vs {
				if v.MediaType != ocispec.MediaTypeImageManifest || v.Digest.Validate() != nil {
					t.Fatalf("variant %+v", v)
				}
			}
		}
	})
}
