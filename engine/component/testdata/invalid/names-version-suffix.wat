;; A version suffix after a version that is not canonical.
(component
  (import "wasi:io/streams@0.2.1" (versionsuffix ".1") (instance))
)
