;; The root imports a core module, which the host supplies at link time
;; (Linker.DefineModule).
(component
  (import "lib" (core module $lib
    (export "base" (func (result i32)))))
  (core instance $l (instantiate $lib))
  (alias core export $l "base" (core func $base-core))
  (func $base (result u32) (canon lift (core func $base-core)))
  (export "base" (func $base))
)
