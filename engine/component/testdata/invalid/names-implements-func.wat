;; Only instances may carry an implements attribute.
(component
  (import "get" (implements "test:kv/store") (func))
)
