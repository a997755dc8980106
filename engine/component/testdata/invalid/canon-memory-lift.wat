;; Lifting a function with a string parameter without a memory.
(component
  (core module $m (func (export "f") (param i32 i32)))
  (core instance $i (instantiate $m))
  (func (param "s" string) (canon lift (core func $i "f")))
)
