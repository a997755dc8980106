;; An interface name without a package separator.
(component
  (import "wasi:io" (instance))
)
