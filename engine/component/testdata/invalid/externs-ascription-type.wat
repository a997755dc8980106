;; An exported type ascribed a different type.
(component
  (type $t u32)
  (type $u string)
  (export "t" (type $t) (type (eq $u)))
)
