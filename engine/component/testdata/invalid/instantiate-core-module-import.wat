;; The core module given imports something its importer's module type does
;; not declare.
(component
  (core module $m
    (import "env" "secret" (func))
    (func (export "answer") (result i32) i32.const 1))
  (component $inner
    (import "m" (core module
      (export "answer" (func (result i32))))))
  (instance (instantiate $inner (with "m" (core module $m))))
)
