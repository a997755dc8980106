package github

import (
	"strings"
	"testing"
)

// FuzzDecodeRelease: a release's JSON from any server decodes or is
// refused, and what decodes holds only plain, distinct asset names and
// well-formed digests.
func FuzzDecodeRelease(f *testing.F) {
	f.Add([]byte(`{"tag_name":"v1","assets":[{"id":1,"name":"a.mur.zip","size":3,"digest":"sha256:` + strings.Repeat("ab", 32) + `"}]}`))
	f.Add([]byte(`{"tag_name":null,"assets":null}`))
	f.Add([]byte(`{"assets":[{"id":1,"name":"../a"},{"id":2,"name":"a","digest":"md5:x"}]}`))
	f.Add([]byte(`{"assets":[{"id":-1,"name":"a"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeRelease(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, a := range r.Assets {
			if checkAssetName(a.Name) != nil || seen[a.Name] || a.Size < 0 || (a.SHA256 != "" && !isHex64(a.SHA256)) {
				t.Fatalf("decoded a bad asset %+v", a)
			}
			seen[a.Name] = true
		}
	})
}

// FuzzParseChecksumFile: a checksum asset yields a sha256 or an error.
func FuzzParseChecksumFile(f *testing.F) {
	f.Add([]byte(strings.Repeat("0", 64)+"  a.mur.zip\n"), "a.mur.zip")
	f.Add([]byte(strings.Repeat("F", 64)+" *a.mur.zip\r\n"), "a.mur.zip")
	f.Add([]byte(strings.Repeat("0", 64)+"\n"+strings.Repeat("1", 64)), "a")
	f.Fuzz(func(t *testing.T, data []byte, asset string) {
		sum, err := parseChecksumFile(data, asset)
		if err == nil && (!isHex64(sum) || strings.ToLower(sum) != sum) {
			t.Fatalf("parsed %q", sum)
		}
	})
}

// FuzzParseDigest: GitHub's digest field yields a sha256, nothing, or an
// error.
func FuzzParseDigest(f *testing.F) {
	f.Add("sha256:" + strings.Repeat("0", 64))
	f.Add("sha512:00")
	f.Add("sha256:")
	f.Fuzz(func(t *testing.T, s string) {
		sum, err := parseDigest(s)
		if err == nil && sum != "" && (!isHex64(sum) || !strings.HasPrefix(s, "sha256:")) {
			t.Fatalf("parsed %q from %q", sum, s)
		}
	})
}
