;; The implements attribute is not supported.
(component
  (import "store" (implements "wasi:keyvalue/store") (instance))
)
