;; A func import whose type index names a value type.
(component
  (type $t u32)
  (import "f" (func (type $t)))
)
