;; A never-instantiated nested component with a constructor returning the wrong type.
(component
  (component
    (import "r" (type $r (sub resource)))
    (import "[constructor]r" (func (result u32)))
  )
)
