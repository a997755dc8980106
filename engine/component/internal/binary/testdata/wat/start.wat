;; A start function with neither arguments nor results.
(component
  (core module $m (func (export "s")))
  (core instance $i (instantiate $m))
  (func $s (canon lift (core func $i "s")))
  (start $s)
)
