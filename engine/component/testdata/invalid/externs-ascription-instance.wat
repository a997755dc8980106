;; An exported instance ascribed a type with an export it lacks.
(component
  (import "f" (func $f))
  (instance $i (export "f" (func $f)))
  (export "i" (instance $i) (instance (export "g" (func))))
)
