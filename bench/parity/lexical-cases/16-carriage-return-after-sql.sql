select 1 as a; -- nl: xselect 2 as b
