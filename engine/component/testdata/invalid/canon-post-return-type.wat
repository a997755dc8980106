;; A post-return that does not take the lifted function's results.
(component
  (core module $m
    (func (export "f") (result i32) i32.const 0)
    (func (export "post") (param i64)))
  (core instance $i (instantiate $m))
  (func (result u32) (canon lift (core func $i "f") (post-return (core func $i "post"))))
)
