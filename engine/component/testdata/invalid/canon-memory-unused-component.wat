;; A never-instantiated nested component lifting a string function without a memory.
(component
  (component
    (core module $m (func (export "f") (param i32 i32)))
    (core instance $i (instantiate $m))
    (func (export "f") (param "s" string) (canon lift (core func $i "f")))
  )
)
