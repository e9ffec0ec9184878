create table parity_dutch(x int);
insert into parity_dutch values (1), (2);
-- NL: Dutch rows follow
