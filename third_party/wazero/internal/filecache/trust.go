package filecache

import (
	"fmt"
	"os"
)

// CheckDir (mur patch) refuses a cache directory that is not a directory
// or that checkOwned does not trust: whoever may write it may plant code.
func CheckDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("compilation cache %s is not a directory", dir)
	}
	if err := checkOwned(fi); err != nil {
		return fmt.Errorf("compilation cache %s is not this user's own: %w; use a directory only you can write", dir, err)
	}
	return nil
}

// openTrusted opens an entry if it is a regular file checkOwned trusts;
// ok is false for one that is missing or not trusted (then compiled
// afresh, and replaced when Add renames the new entry over it).
func openTrusted(path string) (f *os.File, ok bool, err error) {
	f, err = os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		if os.IsNotExist(err) || isLoop(err) {
			return nil, false, nil
		}
		return nil, false, err
	}
	fi, err := f.Stat()
	if err == nil && (!fi.Mode().IsRegular() || checkOwned(fi) != nil) {
		f.Close()
		return nil, false, nil
	}
	if err != nil {
		f.Close()
		return nil, false, err
	}
	return f, true, nil
}
