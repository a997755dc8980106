;; The core module given lacks an export its importer's module type declares.
(component
  (core module $m
    (func (export "other") (result i32) i32.const 1))
  (component $inner
    (import "m" (core module
      (export "answer" (func (result i32))))))
  (instance (instantiate $inner (with "m" (core module $m))))
)
