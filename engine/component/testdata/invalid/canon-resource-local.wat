;; resource.new of a resource the component imports.
(component
  (import "r" (type $r (sub resource)))
  (core func (canon resource.new $r))
)
