;; Lowers its own lifted export and lifts the result again: calling it must
;; trap as a re-entry of the instance, not recurse into it.
(component
  (core module $m
    (func (export "double") (param i32) (result i32)
      local.get 0
      local.get 0
      i32.add))
  (core instance $i (instantiate $m))
  (alias core export $i "double" (core func $double-core))
  (type $t (func (param "x" u32) (result u32)))
  (func $double (type $t) (canon lift (core func $double-core)))
  (core func $lowered (canon lower (func $double)))
  (func $again (type $t) (canon lift (core func $lowered)))
  (export "double" (func $double))
  (export "again" (func $again))
)
