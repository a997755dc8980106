;; A core instance exporting one name twice.
(component
  (core module $m (func (export "f")))
  (core instance $i (instantiate $m))
  (alias core export $i "f" (core func $f))
  (core instance (export "g" (func $f)) (export "g" (func $f)))
)
