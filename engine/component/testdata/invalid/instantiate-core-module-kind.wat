;; The core module given exports a memory where its importer's module type
;; declares a function.
(component
  (core module $m
    (memory (export "answer") 1))
  (component $inner
    (import "m" (core module
      (export "answer" (func (result i32))))))
  (instance (instantiate $inner (with "m" (core module $m))))
)
