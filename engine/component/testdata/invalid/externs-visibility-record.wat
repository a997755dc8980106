;; An exported function using a record that is not exported.
(component
  (type $rec (record (field "x" u32)))
  (core module $m (func (export "f") (param i32)))
  (core instance $i (instantiate $m))
  (func $f (param "r" $rec) (canon lift (core func $i "f")))
  (export "f" (func $f))
)
