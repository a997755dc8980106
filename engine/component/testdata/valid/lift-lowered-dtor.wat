;; A resource whose destructor is a lowered host import, and a constructor
;; that is the lifted resource.new built-in.
(component
  (import "dropped" (func $dropped (param "rep" u32)))
  (core func $dtor (canon lower (func $dropped)))
  (type $r (resource (rep i32) (dtor (core func $dtor))))
  (export $R "r" (type $r))
  (core func $new (canon resource.new $r))
  (type $make-t (func (param "rep" u32) (result (own $R))))
  (func $make (type $make-t) (canon lift (core func $new)))
  (export "make" (func $make))
)
