;; An export ascribed a function type that is not the function's.
(component
  (core module $m (func (export "f")))
  (core instance $i (instantiate $m))
  (func $f (canon lift (core func $i "f")))
  (export "f" (func $f) (func (param "x" u32)))
)
