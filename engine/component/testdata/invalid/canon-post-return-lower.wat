(component
  (core module $m (func (export "post")))
  (core instance $i (instantiate $m))
  (import "f" (func $f))
  (core func (canon lower (func $f) (post-return (core func $i "post"))))
)
