;; A list of a function type reached through an instance export alias.
(component
  (import "i" (instance $i
    (type $f (func))
    (export "t" (type (eq $f)))
  ))
  (alias export $i "t" (type $t))
  (type (list $t))
)
