//go:build unix && !linux

package sandbox

import "errors"

// contain refuses: kernel containment plans are Linux mechanisms, and a
// plan here means a caller that believes otherwise.
func contain(*Plan) error {
	return errors.New("a kernel containment plan cannot be applied on this platform")
}
