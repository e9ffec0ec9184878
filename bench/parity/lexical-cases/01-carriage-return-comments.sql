-- nl: a noteselect 1 as a;
select 1 as a; -- nl: xselect 2 as b;
select 3 as c -- nl: a trailing note;
