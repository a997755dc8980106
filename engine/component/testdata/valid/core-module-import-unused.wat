;; A nested component that imports and instantiates a core module but is
;; never instantiated itself: valid, and checked without a module.
(component
  (component $inner
    (import "lib" (core module $lib
      (export "base" (func (result i32)))))
    (core instance $l (instantiate $lib))
    (alias core export $l "base" (core func $base-core))
    (func $base (result u32) (canon lift (core func $base-core)))
    (export "base" (func $base)))
)
