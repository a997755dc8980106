;; An interface version that is not semver.
(component
  (import "wasi:io/streams@1.0.0.0" (instance))
)
