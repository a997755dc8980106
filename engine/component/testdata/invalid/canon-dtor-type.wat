;; A resource destructor of type (i64) -> ().
(component
  (core module $m (func (export "dtor") (param i64)))
  (core instance $i (instantiate $m))
  (type (resource (rep i32) (dtor (core func $i "dtor"))))
)
