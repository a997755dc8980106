;; Lifting a core function whose type is not the flattened function type.
(component
  (core module $m (func (export "f") (param i64)))
  (core instance $i (instantiate $m))
  (func (param "x" u32) (canon lift (core func $i "f")))
)
