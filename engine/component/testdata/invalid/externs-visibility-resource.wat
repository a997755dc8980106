;; An exported function returning a resource that is not exported.
(component
  (type $r (resource (rep i32)))
  (core module $m (func (export "f") (result i32) i32.const 0))
  (core instance $i (instantiate $m))
  (func $f (result (own $r)) (canon lift (core func $i "f")))
  (export "f" (func $f))
)
