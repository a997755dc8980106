;; engine-table-shared: a table defined by one core module and grown by
;; another, for the table-cap test. Module $owner defines the table (2
;; elements, no maximum) and has no table.grow; module $grower imports it
;; and grows it: a cap checked per module would miss the growth.
;;
;; Exports:  table-grow: func(n: u32) -> s32 (table.grow's answer in
;;             $grower: the old size, or -1 when refused).
(component
  (core module $owner
    (table (export "t") 2 funcref))
  (core module $grower
    (import "owner" "t" (table $t 2 funcref))
    (func (export "table-grow") (param i32) (result i32)
      (table.grow $t (ref.null func) (local.get 0))))
  (core instance $o (instantiate $owner))
  (core instance $g (instantiate $grower (with "owner" (instance $o))))
  (func (export "table-grow") (param "n" u32) (result s32)
    (canon lift (core func $g "table-grow"))))
